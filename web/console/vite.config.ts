import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';

const here = import.meta.dirname;

// The web console: built into dist/web/console and served by the service at /app.
export default defineConfig({
  root: here,
  base: '/app/',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: path.resolve(here, '../../dist/web/console'),
    emptyOutDir: true,
    sourcemap: true,
  },
});
