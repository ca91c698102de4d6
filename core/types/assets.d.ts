// Bun imports non-code files as text or as an embedded file path.
declare module "*.sql" {
  const text: string;
  export default text;
}
