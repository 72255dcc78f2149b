# syntax=docker/dockerfile:1
# Multi-stage build: a static gomokud binary (frontend embedded) on a small base image,
# running as a non-root user, with a health check against /healthz.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/gomokud ./cmd/gomokud \
 && CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/gomoku ./cmd/gomoku \
 && CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/pbrain-gomoku ./cmd/pbrain-gomoku

FROM alpine:3.20
RUN adduser -D -H -u 10001 gomoku
COPY --from=build /out/ /usr/local/bin/
USER gomoku
EXPOSE 8080
ENV GOMOKU_ADDR=:8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD wget -qO- http://127.0.0.1:8080/healthz >/dev/null || exit 1
ENTRYPOINT ["/usr/local/bin/gomokud"]
