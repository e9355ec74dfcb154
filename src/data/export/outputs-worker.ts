/** The script of the worker thread that reads outputs.csv (see ./outputs-thread.ts). */
import { serveOutputs } from './outputs-thread.js';

serveOutputs();
