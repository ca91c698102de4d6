CREATE TABLE `task_saver_backfills` (
	`server_id` text PRIMARY KEY NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `task_saver_backfills` (`server_id`) SELECT `id` FROM `servers`;
