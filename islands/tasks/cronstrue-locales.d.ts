// cronstrue's language files ship without types: each only registers its language with cronstrue.
declare module "cronstrue/locales/*";
