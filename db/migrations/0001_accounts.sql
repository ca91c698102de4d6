CREATE TABLE `oauth2_clients` (
	`client_id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`server_id` text,
	`name` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`secret_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `oauth2_clients_user_idx` ON `oauth2_clients` (`user_id`);--> statement-breakpoint
CREATE TABLE `passkeys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`public_key` blob NOT NULL,
	`counter` integer DEFAULT 0 NOT NULL,
	`transports` text DEFAULT '' NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `passkeys_user_idx` ON `passkeys` (`user_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `otp_last_step` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `status` text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `invite_token_hash` text;--> statement-breakpoint
ALTER TABLE `users` ADD `invite_expires_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `users_invite_token_hash_unique` ON `users` (`invite_token_hash`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `kind` text DEFAULT 'session' NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `client_id` text REFERENCES oauth2_clients(client_id);