-- Invoices keep the seller (INVOICE_SELLER_* at issue time) they were issued with. Rows issued before stay null and
-- print the configuration of the moment, as they always did.
ALTER TABLE "invoices" ADD COLUMN "seller" jsonb;
