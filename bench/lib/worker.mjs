// Worker-thread entry of runInWorker() (load.mjs): imports a module, calls one of its exports with the
// data it was given and posts the result back.
import { parentPort, workerData } from 'node:worker_threads';

const mod = await import(workerData.module);
const result = await mod[workerData.fn](workerData.data);
parentPort?.postMessage(result);
