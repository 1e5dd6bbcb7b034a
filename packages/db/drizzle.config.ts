// drizzle-kit reads this to generate versioned SQL migrations from src/schema (npm run generate -w packages/db).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema/index.ts',
  out: './migrations',
});
