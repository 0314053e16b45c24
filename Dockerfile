# The Verimark verification service as a container image (docs/self-hosting.md, "Container").
#   docker build -t verimark-service .
#   docker run -d -p 127.0.0.1:8787:8787 -v verimark-data:/data verimark-service
# The same image runs the HTTP service (default command) and verification-only workers
# (`node worker.js`); `node admin.js …` inside a running container manages keys.
ARG BASE_IMAGE=node:22-bookworm-slim

# The production install's manifest: dist/package.json (runtime dependencies only) and its
# lockfile cut from the repository's. It changes only when the runtime dependencies do.
FROM ${BASE_IMAGE} AS manifest
WORKDIR /src
COPY package-lock.json ./
COPY server/package.json server/build.mjs server/
RUN node server/build.mjs --manifest-only

# The runtime dependencies, installed from that manifest alone, so that the layer is rebuilt only
# when they change. better-sqlite3 downloads a prebuilt binary, or compiles where it cannot:
# hence python3, make and g++, and Node's headers from the base image.
FROM ${BASE_IMAGE} AS runtime-deps
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
WORKDIR /app
COPY --from=manifest /src/server/dist/package.json /src/server/dist/package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

# The service bundled to plain JavaScript (`npm run build -w server`) with the workspace's tools.
FROM ${BASE_IMAGE} AS build
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
WORKDIR /src
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY server/package.json server/
RUN npm ci --ignore-scripts --workspace server --workspace contract
COPY contract/ contract/
COPY server/ server/
RUN npm run build -w server

# Run: the built service and its node_modules, as an unprivileged user, data in /data.
FROM ${BASE_IMAGE}
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8787 DATA_DIR=/data
RUN groupadd --system verimark \
  && useradd --system --gid verimark --home-dir /app --no-create-home --shell /usr/sbin/nologin verimark \
  && mkdir -p /data \
  && chown verimark:verimark /data
WORKDIR /app
COPY --from=runtime-deps /app/ /app/
COPY --from=build /src/server/dist/ /app/
USER verimark
VOLUME ["/data"]
EXPOSE 8787
# Node's own fetch: the image needs no curl. /healthz answers once the database does.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8787) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and the service handles SIGTERM itself: `docker stop` finishes in-flight work and
# leaves the rest queued for the next start.
STOPSIGNAL SIGTERM
CMD ["node", "main.js"]
