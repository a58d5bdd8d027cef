DROP INDEX "tickets_unassigned_idx";--> statement-breakpoint
DROP INDEX "tickets_assignee_idx";--> statement-breakpoint
CREATE INDEX "tickets_unassigned_status_idx" ON "tickets" USING btree ("status","id","type") WHERE assignee_id is null and status <> 'closed';--> statement-breakpoint
CREATE INDEX "tickets_unassigned_type_idx" ON "tickets" USING btree ("type","id","status") WHERE assignee_id is null and status <> 'closed';--> statement-breakpoint
CREATE INDEX "tickets_unassigned_waiting_idx" ON "tickets" USING btree ("waiting_since","id","status","type") WHERE assignee_id is null and status <> 'closed';--> statement-breakpoint
CREATE INDEX "tickets_unassigned_waiting_desc_idx" ON "tickets" USING btree ("waiting_since" DESC NULLS LAST,"id" DESC NULLS FIRST,"status","type") WHERE assignee_id is null and status <> 'closed';--> statement-breakpoint
CREATE INDEX "tickets_unassigned_customer_idx" ON "tickets" USING btree ("customer_id") WHERE assignee_id is null and status <> 'closed';--> statement-breakpoint
CREATE INDEX "tickets_unassigned_title_trgm_idx" ON "tickets" USING gin ("title" gin_trgm_ops) WHERE assignee_id is null and status <> 'closed';--> statement-breakpoint
CREATE INDEX "tickets_assignee_status_idx" ON "tickets" USING btree ("assignee_id","status","id","type");--> statement-breakpoint
CREATE INDEX "tickets_assignee_type_idx" ON "tickets" USING btree ("assignee_id","type","id","status");--> statement-breakpoint
CREATE INDEX "tickets_assignee_waiting_idx" ON "tickets" USING btree ("assignee_id","waiting_since","id","status","type");--> statement-breakpoint
CREATE INDEX "tickets_assignee_waiting_desc_idx" ON "tickets" USING btree ("assignee_id","waiting_since" DESC NULLS LAST,"id" DESC NULLS FIRST,"status","type");--> statement-breakpoint
CREATE INDEX "tickets_assignee_customer_idx" ON "tickets" USING btree ("assignee_id","customer_id");--> statement-breakpoint
CREATE INDEX "tickets_unassigned_idx" ON "tickets" USING btree ("created_at","id","status","type") WHERE assignee_id is null and status <> 'closed';--> statement-breakpoint
CREATE INDEX "tickets_assignee_idx" ON "tickets" USING btree ("assignee_id","created_at","id","status","type");