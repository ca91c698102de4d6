export { openDatabase, isPostgresUrl, schema, type Db } from "./client";
