# Callsign's image: the bundled service on Node.js 20 (Debian bookworm), production packages only, run as the
# unprivileged `node` user. It is a production service by default and refuses to start, naming each, without
# what production needs: DATABASE_URL (PostgreSQL), PIN_PEPPER, KEY_ENCRYPTION_KEY and a real SMS provider
# (see docs/deploy.md). To try it, `-e APP_ENV=development`: PGlite in the /data volume, codes in the log.

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
    APP_ENV=production \
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
