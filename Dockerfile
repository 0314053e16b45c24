# The Verimark verification service as a container image (docs/self-hosting.md, "Container").
#   docker build -t verimark-service .
#   docker run -d -p 127.0.0.1:8787:8787 -v verimark-data:/data verimark-service
# The same image runs the HTTP service (default command) and verification-only workers
# (`node worker.js`); `node admin.js …` inside a running container manages keys.
ARG BASE_IMAGE=node:22-bookworm-slim

# Build: the workspace's dependencies, the service's production install (runtime dependencies
# only; better-sqlite3 compiled when no prebuilt binary can be downloaded: hence python3, make and
# g++, and Node's headers from the base image) in a layer that only a dependency change rebuilds,
# then the service bundled to plain JavaScript beside it.
FROM ${BASE_IMAGE} AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
WORKDIR /src
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY server/package.json server/build.mjs server/
RUN npm ci --ignore-scripts --workspace server --workspace contract
RUN node server/build.mjs --manifest-only \
  && mkdir /app \
  && cp server/dist/package.json server/dist/package-lock.json /app/ \
  && cd /app \
  && npm ci --omit=dev \
  && npm cache clean --force
COPY contract/ contract/
COPY server/ server/
RUN npm run build -w server \
  && cmp server/dist/package-lock.json /app/package-lock.json \
  && cp -R server/dist/. /app/

# Run: the built service and its node_modules, as an unprivileged user, data in /data.
FROM ${BASE_IMAGE}
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8787 DATA_DIR=/data
RUN groupadd --system verimark \
  && useradd --system --gid verimark --home-dir /app --no-create-home --shell /usr/sbin/nologin verimark \
  && mkdir -p /data \
  && chown verimark:verimark /data
WORKDIR /app
COPY --from=build /app/ /app/
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
