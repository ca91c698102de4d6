create table "task_saver_backfills" (
  "server_id" text primary key
);

alter table "task_saver_backfills" add constraint "task_saver_backfills_server_id_servers_id_fk" foreign key ("server_id") references "servers" ("id") on delete cascade on update no action;

insert into "task_saver_backfills" ("server_id") select "id" from "servers";
