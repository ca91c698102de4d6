CREATE TABLE `auth_providers` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`issuer` text,
	`client_id` text NOT NULL,
	`client_secret` text NOT NULL,
	`scopes` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`allow_registration` integer DEFAULT false NOT NULL,
	`trust_email` integer DEFAULT false NOT NULL,
	`satisfies_two_factor` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sso_flows` (
	`state` text PRIMARY KEY NOT NULL,
	`provider_id` text NOT NULL,
	`nonce` text NOT NULL,
	`code_verifier` text NOT NULL,
	`next` text NOT NULL,
	`link_user_id` integer,
	`pending_subject` text,
	`pending_user_id` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `user_identities` (
	`provider_id` text NOT NULL,
	`subject` text NOT NULL,
	`user_id` integer NOT NULL,
	`email` text,
	`created_at` integer NOT NULL,
	`last_login_at` integer,
	PRIMARY KEY(`provider_id`, `subject`),
	FOREIGN KEY (`provider_id`) REFERENCES `auth_providers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_identities_user_idx` ON `user_identities` (`user_id`);