export { openDatabase, schema, type Db } from "./client";
