CREATE TABLE "request_log_windows" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"n" integer NOT NULL,
	"entries" json NOT NULL
);
--> statement-breakpoint
-- The entries already kept move over, one window per key and minute, in their order (at, then id); a gateway
-- of the earlier version still writing waits for the move (and then fails on the dropped table, and retries).
LOCK TABLE "request_logs" IN EXCLUSIVE MODE;--> statement-breakpoint
INSERT INTO "request_log_windows" ("account_id", "key_id", "first_at", "last_at", "n", "entries")
SELECT "account_id", "key_id", min("at"), max("at"), count(*)::integer,
	json_agg(json_build_array((extract(epoch from "at") * 1000)::double precision, "chain", "method", "transport",
		"outcome", "error_code", "latency_ms", "ru") ORDER BY "at", "id")
FROM "request_logs"
GROUP BY "account_id", "key_id", date_trunc('minute', "at");--> statement-breakpoint
DROP TABLE "request_logs" CASCADE;--> statement-breakpoint
ALTER TABLE "request_log_windows" ADD CONSTRAINT "request_log_windows_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_log_windows" ADD CONSTRAINT "request_log_windows_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_log_windows_key_last_idx" ON "request_log_windows" USING btree ("key_id","last_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_log_windows_first_at_idx" ON "request_log_windows" USING btree ("first_at");