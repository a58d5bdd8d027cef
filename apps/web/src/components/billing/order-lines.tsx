/** The price cell of an order line that the plan's price already covers. */
export const included = <span className="text-slate-600">inklusive</span>;
