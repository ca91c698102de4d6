CREATE TABLE `leases` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `one_time_values` (
	`kind` text NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`kind`, `key`)
);
--> statement-breakpoint
CREATE INDEX `one_time_values_expiry_idx` ON `one_time_values` (`expires_at`);--> statement-breakpoint
CREATE TABLE `panel_instances` (
	`id` text PRIMARY KEY NOT NULL,
	`host` text NOT NULL,
	`pid` integer NOT NULL,
	`local_node` integer DEFAULT false NOT NULL,
	`started_at` integer NOT NULL,
	`seen_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `nodes` ADD `last_panel` text;--> statement-breakpoint
ALTER TABLE `transfers` ADD `runner` text;--> statement-breakpoint
ALTER TABLE `server_users` ADD `added_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Rows made before this column keep their order (the first is the owner): rowid is that order.
UPDATE `server_users` SET `added_at` = rowid;
--> statement-breakpoint
-- sessions.client_id was added without the cascade the schema states (an OAuth2 client's tokens go with it): the table is made again with it.
CREATE TABLE `__new_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text DEFAULT 'session' NOT NULL,
	`client_id` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_id`) REFERENCES `oauth2_clients`(`client_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_sessions` (`token_hash`, `user_id`, `kind`, `client_id`, `created_at`, `expires_at`) SELECT `token_hash`, `user_id`, `kind`, `client_id`, `created_at`, `expires_at` FROM `sessions`;
--> statement-breakpoint
DROP TABLE `sessions`;
--> statement-breakpoint
ALTER TABLE `__new_sessions` RENAME TO `sessions`;
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);
