# syntax=docker/dockerfile:1
# The product as one image: the embedded default (`docker run` with a volume on /app/data) or, with ROLE,
# DATABASE_URL and REDIS_URL, one part of scale mode (docker-compose.yml). docs/scale-mode.md, "Containers".
#
# Build stages use the full Debian image (compilers and python for any native module without a prebuilt binary);
# the runtime is the slim image of the same Debian release, so native modules built here load there.
ARG BUILD_IMAGE=node:20-bookworm
ARG RUNTIME_IMAGE=node:20-bookworm-slim

# Every dependency, exactly as the lockfile says (the web build needs the dev tools).
FROM ${BUILD_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY apps/server/package.json apps/server/
COPY apps/gateway/package.json apps/gateway/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/
COPY packages/db/package.json packages/db/
RUN --mount=type=cache,target=/root/.npm npm ci --no-fund --no-audit

# The web app, served by the console from apps/web/dist.
FROM deps AS build
COPY . .
RUN npm run build

# Only what runs: production dependencies. tsx (root) runs the TypeScript sources; hardhat (@rpc/gateway) runs the
# `localnet` dev chain of the embedded default and the local dedicated-node driver.
FROM ${BUILD_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY apps/server/package.json apps/server/
COPY apps/gateway/package.json apps/gateway/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/
COPY packages/db/package.json packages/db/
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-fund --no-audit

FROM ${RUNTIME_IMAGE} AS runtime
# tini as PID 1: forwards SIGTERM to node (graceful shutdown flushes usage) and reaps the Hardhat child processes.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
  DATA_DIR=/app/data
WORKDIR /app
# Code and dependencies belong to root and are read-only for the process; only DATA_DIR is writable.
COPY --from=prod-deps /app/node_modules ./node_modules
# The workspaces' manifests and any dependencies npm could not hoist (apps/*/node_modules).
COPY --from=prod-deps /app/apps ./apps
COPY --from=prod-deps /app/packages ./packages
COPY package.json tsconfig.json tsconfig.base.json ./
COPY packages ./packages
COPY apps/gateway ./apps/gateway
COPY apps/server ./apps/server
COPY --from=build /app/apps/web/dist ./apps/web/dist
# The image's `node` user (uid 1000) has a home directory, where Hardhat keeps its settings.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
# PGlite, the generated API_KEY_SECRET, the mail outbox and the gateway's usage journal (embedded default). In scale
# mode each gateway container still keeps its usage journal here: one volume per container, never shared.
VOLUME ["/app/data"]
# Console (PORT) and gateway (GATEWAY_PORT), the defaults of apps/server/src/env.ts.
EXPOSE 3000 3001
# /health of the part this container runs: the console's checks the database; a gateway-only one (ROLE=gateway)
# answers on GATEWAY_PORT. No curl in the slim image: Node's fetch.
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "const e=process.env,g=e.ROLE==='gateway',p=g?e.GATEWAY_PORT||3001:e.PORT||3000;fetch('http://127.0.0.1:'+p+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# What `npm start` runs, without npm in between (npm would neither forward signals nor reap).
CMD ["node", "--import", "tsx", "apps/server/src/main.ts"]
