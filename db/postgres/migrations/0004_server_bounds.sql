ALTER TABLE "servers" ADD COLUMN "bounds" text;
