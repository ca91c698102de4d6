create table "task_savers" (
  "server_id" text not null,
  "task_id" text not null,
  "user_id" bigint not null,
  "client_id" text,
  "webhooks" text not null,
  "saved_at" bigint not null,
  constraint "task_savers_server_id_task_id_pk" primary key ("server_id", "task_id")
);

alter table "task_savers" add constraint "task_savers_server_id_servers_id_fk" foreign key ("server_id") references "servers" ("id") on delete cascade on update no action;
