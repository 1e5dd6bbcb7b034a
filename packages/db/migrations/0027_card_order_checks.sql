ALTER TABLE "card_orders" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "card_orders" ADD COLUMN "checks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "card_orders_open_created_idx" ON "card_orders" USING btree ("created_at") WHERE "card_orders"."status" in ('pending', 'requires_action');