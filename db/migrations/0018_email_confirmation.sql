CREATE TABLE `email_confirmations` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`email` text NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `email_confirmations_user_id_unique` ON `email_confirmations` (`user_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `email_confirmed` integer DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE `users` SET `email_confirmed` = 1;