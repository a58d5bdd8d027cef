// @vitest-environment jsdom
import { isValidElement } from 'react';
import { Navigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { isLazyPage } from '../lib/lazy-page.ts';
import { productViews } from './product-views.ts';

describe("the shops' pages (decision 042)", () => {
  it('are made with lazyPage, so router.tsx page() requests them beside the query cache', () => {
    const routes = Object.values(productViews).flatMap((view) => view.shopRoutes);
    const pages = routes.filter((route) => !(isValidElement(route.element) && route.element.type === Navigate));
    expect(pages.length).toBeGreaterThanOrEqual(5);
    for (const route of pages) {
      expect(isValidElement(route.element), route.path).toBe(true);
      expect(isLazyPage(isValidElement(route.element) ? route.element.type : null), route.path).toBe(true);
    }
  });
});
