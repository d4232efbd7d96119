# Callsign's image: the bundled service on Node.js 20 (Debian bookworm), production packages only, run as the
# unprivileged `node` user. PGlite keeps its data in the /data volume when DATABASE_URL is unset; in production
# set DATABASE_URL (PostgreSQL), REDIS_URL, PIN_PEPPER and KEY_ENCRYPTION_KEY (see docs/deploy.md).

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/client/package.json packages/client/
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY scripts ./scripts
COPY src ./src
RUN node scripts/bundle.mjs

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
COPY package.json package-lock.json ./
COPY packages/client/package.json packages/client/
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Ready: the database answers with every migration, and Redis where set.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/callsign.mjs", "serve"]
