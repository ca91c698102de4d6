CREATE TABLE `task_savers` (
	`server_id` text NOT NULL,
	`task_id` text NOT NULL,
	`user_id` integer NOT NULL,
	`client_id` text,
	`webhooks` text NOT NULL,
	`saved_at` integer NOT NULL,
	PRIMARY KEY(`server_id`, `task_id`),
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade
);
