ALTER TABLE "nodes" ADD COLUMN "last_status" text;
