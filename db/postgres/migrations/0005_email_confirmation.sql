create table "email_confirmations" (
  "token_hash" text primary key,
  "user_id" bigint not null constraint "email_confirmations_user_id_unique" unique,
  "email" text not null,
  "expires_at" bigint not null
);

alter table "email_confirmations" add constraint "email_confirmations_user_id_users_id_fk" foreign key ("user_id") references "users" ("id") on delete cascade on update no action;

alter table "users" add column "email_confirmed" bigint not null default 0;

update "users" set "email_confirmed" = 1;
