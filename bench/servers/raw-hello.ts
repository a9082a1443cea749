// Baseline of S1 and the harness check: node:http answering a constant, nothing else. Its
// throughput is the most the machine gives one Node process on one core with this generator.
import { createServer } from 'node:http';

const BODY = JSON.stringify({ hello: 'world' });

createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) });
  res.end(BODY);
}).listen(Number(process.env.PORT), '127.0.0.1');
