ALTER TABLE "transfers" ADD COLUMN "skipped" text;
