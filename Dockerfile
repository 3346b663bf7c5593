# phoneflow worker image.
#
#   docker build -t phoneflow .
#   docker run --rm --add-host host.docker.internal:host-gateway \
#     -e PHONEFLOW_TEMPORAL_ADDRESS=temporal.internal:7233 \
#     -e PHONEFLOW_ADB_ADDRESS=host.docker.internal:5037 phoneflow
#
# The worker reaches the phones through the host's ADB server over TCP; the
# adb binary in the image is only for looking around
# (`adb -H host.docker.internal devices`). The starter CLI is included too.

FROM golang:1.26 AS build
WORKDIR /src
ENV CGO_ENABLED=0 GOTOOLCHAIN=local
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN go build -trimpath -ldflags="-s -w" -o /out/worker ./worker && \
    go build -trimpath -ldflags="-s -w" -o /out/starter ./starter

FROM debian:bookworm-slim
RUN apt-get update && \
    apt-get install -y --no-install-recommends ca-certificates adb && \
    rm -rf /var/lib/apt/lists/* && \
    useradd --system --uid 10001 --create-home phoneflow && \
    mkdir /data && chown phoneflow /data
COPY --from=build /out/worker /out/starter /usr/local/bin/
USER phoneflow
WORKDIR /data
ENV PHONEFLOW_DATA_DIR=/data \
    PHONEFLOW_ADB_ADDRESS=host.docker.internal:5037 \
    PHONEFLOW_METRICS_ADDRESS=0.0.0.0:9464 \
    PHONEFLOW_LOG_FORMAT=json
VOLUME /data
EXPOSE 9464
ENTRYPOINT ["worker"]
