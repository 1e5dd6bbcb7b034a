ALTER TABLE "invoices" ALTER COLUMN "purchase_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "card_orders" ADD COLUMN "dn_terms" jsonb;--> statement-breakpoint
ALTER TABLE "card_orders" ADD COLUMN "node_id" uuid;--> statement-breakpoint
ALTER TABLE "card_orders" ADD COLUMN "dn_order_id" uuid;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "dn_order_id" uuid;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_dn_order_id_dedicated_node_orders_id_fk" FOREIGN KEY ("dn_order_id") REFERENCES "public"."dedicated_node_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_dn_order_unique" ON "invoices" USING btree ("dn_order_id");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_one_thing_paid" CHECK (num_nonnulls("invoices"."purchase_id", "invoices"."dn_order_id") = 1);--> statement-breakpoint
-- Node history reasons become codes the web words (DN_EVENT_REASONS); rows written as English before this are mapped.
UPDATE "dedicated_node_events" SET "reason" = CASE
  WHEN "reason" = 'provisioned and answering' THEN 'answering'
  WHEN "reason" = 'term ended' THEN 'term_ended'
  WHEN "reason" = 'renewed within the grace period: starting again' THEN 'renewed_in_grace'
  WHEN "reason" = 'node process was gone: started again' THEN 'restarted'
  WHEN "reason" LIKE 'expires in %' THEN 'expires_soon'
  ELSE "reason" END
WHERE "reason" NOT IN ('ordered', 'answering', 'expires_soon', 'term_ended', 'renewed', 'renewed_in_grace', 'data_deleted', 'restarted', 'stopped_by_operator', 'started_by_operator');
