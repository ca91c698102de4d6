CREATE TABLE `issued_server_ids` (
	`id` text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE `servers` ADD `state` text DEFAULT 'ready' NOT NULL;