CREATE TABLE `allocations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`node_id` integer NOT NULL,
	`ip` text NOT NULL,
	`port` integer NOT NULL,
	`alias` text,
	`server_id` text,
	`is_primary` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`node_id`) REFERENCES `nodes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `allocations_node_ip_port` ON `allocations` (`node_id`,`ip`,`port`);--> statement-breakpoint
CREATE INDEX `allocations_server_idx` ON `allocations` (`server_id`);--> statement-breakpoint
ALTER TABLE `nodes` ADD `tags` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `nodes` ADD `draining` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `servers` ADD `alias` text;--> statement-breakpoint
ALTER TABLE `servers` ADD `allocation_limit` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `servers` ADD `memory_mib` integer;