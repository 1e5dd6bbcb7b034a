CREATE TYPE "public"."dn_node_type" AS ENUM('full', 'archive');--> statement-breakpoint
CREATE TYPE "public"."dn_order_kind" AS ENUM('buy', 'renew');--> statement-breakpoint
CREATE TYPE "public"."dn_status" AS ENUM('online', 'stopped', 'pending', 'will_expired', 'expired');--> statement-breakpoint
CREATE TABLE "dedicated_node_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"node_id" uuid NOT NULL,
	"status" "dn_status" NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"reason" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dedicated_node_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"node_id" uuid NOT NULL,
	"user_id" uuid,
	"kind" "dn_order_kind" NOT NULL,
	"request_key" text NOT NULL,
	"months" integer NOT NULL,
	"monthly_cents" bigint NOT NULL,
	"discount_percent" integer NOT NULL,
	"price_cents" bigint NOT NULL,
	"channel" text NOT NULL,
	"sku_version" text NOT NULL,
	"expires_before" timestamp with time zone,
	"expires_after" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dedicated_nodes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"node_type" "dn_node_type" NOT NULL,
	"region" text NOT NULL,
	"status" "dn_status" DEFAULT 'pending' NOT NULL,
	"months" integer NOT NULL,
	"price_cents" bigint NOT NULL,
	"sku_version" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"online_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"data_deleted_at" timestamp with time zone,
	"driver" text NOT NULL,
	"driver_ref" jsonb,
	"driver_generation" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dedicated_nodes_months_positive" CHECK ("dedicated_nodes"."months" > 0)
);
--> statement-breakpoint
ALTER TABLE "dedicated_node_events" ADD CONSTRAINT "dedicated_node_events_node_id_dedicated_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."dedicated_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dedicated_node_orders" ADD CONSTRAINT "dedicated_node_orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dedicated_node_orders" ADD CONSTRAINT "dedicated_node_orders_node_id_dedicated_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."dedicated_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dedicated_node_orders" ADD CONSTRAINT "dedicated_node_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dedicated_nodes" ADD CONSTRAINT "dedicated_nodes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dedicated_node_events_node_idx" ON "dedicated_node_events" USING btree ("node_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "dedicated_node_orders_request_key_unique" ON "dedicated_node_orders" USING btree ("account_id","request_key");--> statement-breakpoint
CREATE INDEX "dedicated_node_orders_node_idx" ON "dedicated_node_orders" USING btree ("node_id","created_at");--> statement-breakpoint
CREATE INDEX "dedicated_nodes_account_created_idx" ON "dedicated_nodes" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "dedicated_nodes_status_expires_idx" ON "dedicated_nodes" USING btree ("status","expires_at");