CREATE TABLE `sso_grants` (
	`user_id` integer NOT NULL,
	`provider_id` text NOT NULL,
	`rule` text NOT NULL,
	`kind` text NOT NULL,
	`value` text NOT NULL,
	`server_id` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`user_id`, `provider_id`, `rule`, `kind`, `value`, `server_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`provider_id`) REFERENCES `auth_providers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `auth_providers` ADD `rules` text DEFAULT '[]' NOT NULL;