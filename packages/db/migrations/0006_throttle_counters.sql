-- Console throttle counters without Redis (embedded default): kept in the database so a restart does not reset them.
CREATE TABLE "throttle_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "throttle_counters_reset_at_idx" ON "throttle_counters" USING btree ("reset_at");