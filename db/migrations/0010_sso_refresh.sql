ALTER TABLE `auth_providers` ADD `refresh_minutes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `user_identities` ADD `refresh_token` text;--> statement-breakpoint
ALTER TABLE `user_identities` ADD `refreshed_at` integer;