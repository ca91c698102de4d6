CREATE TABLE `nodes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`public_host` text NOT NULL,
	`public_port` integer NOT NULL,
	`private_host` text NOT NULL,
	`private_port` integer NOT NULL,
	`sftp_port` integer NOT NULL,
	`internal_host` text,
	`secret` text NOT NULL,
	`is_local` integer DEFAULT false NOT NULL,
	`last_seen_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `nodes_name_unique` ON `nodes` (`name`);--> statement-breakpoint
CREATE TABLE `server_users` (
	`server_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`flags` text NOT NULL,
	PRIMARY KEY(`server_id`, `user_id`),
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `server_users_user_idx` ON `server_users` (`user_id`);--> statement-breakpoint
CREATE TABLE `servers` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`node_id` integer NOT NULL,
	`template` text DEFAULT '' NOT NULL,
	`ip` text,
	`port` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`node_id`) REFERENCES `nodes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `servers_name_unique` ON `servers` (`name`);--> statement-breakpoint
CREATE INDEX `servers_node_idx` ON `servers` (`node_id`);--> statement-breakpoint
CREATE TABLE `templates` (
	`id` text PRIMARY KEY NOT NULL,
	`display` text DEFAULT '' NOT NULL,
	`type` text DEFAULT 'other' NOT NULL,
	`definition` text NOT NULL,
	`updated_at` integer NOT NULL
);
