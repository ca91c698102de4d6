CREATE TABLE `activity` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`actor_name` text,
	`on_behalf_of` integer,
	`server_id` text,
	`subject` text,
	`ip` text,
	`properties` text DEFAULT '{}' NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `activity_at_idx` ON `activity` (`at`);--> statement-breakpoint
CREATE INDEX `activity_server_idx` ON `activity` (`server_id`,`at`);--> statement-breakpoint
CREATE INDEX `activity_actor_idx` ON `activity` (`actor_type`,`actor_id`,`at`);--> statement-breakpoint
CREATE INDEX `activity_event_idx` ON `activity` (`event`,`at`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`webhook_id` integer NOT NULL,
	`delivery_id` text NOT NULL,
	`event` text NOT NULL,
	`body` text NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_status` integer,
	`last_latency_ms` integer,
	`last_response` text,
	`last_attempt_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_delivery_id_unique` ON `webhook_deliveries` (`delivery_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`state`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_hook_idx` ON `webhook_deliveries` (`webhook_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`server_id` text,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`secret` text NOT NULL,
	`format` text DEFAULT 'json' NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`allow_internal` integer DEFAULT false NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`disabled_reason` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhooks_server_idx` ON `webhooks` (`server_id`);