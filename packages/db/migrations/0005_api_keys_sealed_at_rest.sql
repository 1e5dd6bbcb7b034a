-- API keys at rest (docs/decisions/api-key-storage.md): new keys are stored as an HMAC lookup hash plus AES-256-GCM
-- ciphertext. SQL cannot encrypt with API_KEY_SECRET, so the plain-text column only becomes legacy_key here; the
-- server seals and empties it at start (sealLegacyApiKeys), before it serves anything.
ALTER TABLE "api_keys" RENAME COLUMN "key" TO "legacy_key";--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "legacy_key" DROP NOT NULL;--> statement-breakpoint
DROP INDEX "api_keys_key_unique";--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "key_hash" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "key_ciphertext" text;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_unique" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_key_sealed_or_legacy" CHECK (("api_keys"."key_hash" is null) = ("api_keys"."key_ciphertext" is null) and ("api_keys"."key_hash" is null) <> ("api_keys"."legacy_key" is null));--> statement-breakpoint
CREATE TABLE "secret_fingerprints" (
	"purpose" text PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
