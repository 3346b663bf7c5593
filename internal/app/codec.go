package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/codec"
)

// ServeCodec serves the payload codec endpoint on encryption.codec_address
// until ctx ends, for the Web UI to decode encrypted payloads. Browsers at
// uiOrigins may call it. Without encryption.codec_token it refuses to
// listen beyond loopback. With a token, callers send it as a Bearer header
// or, like the Web UI, which cannot add headers, as the last path segment
// (codec endpoint http://host:port/<token>). It returns the bound address.
func ServeCodec(ctx context.Context, cfg config.Config, uiOrigins []string, log *slog.Logger) (string, error) {
	addr := cfg.Encryption.CodecAddress
	if addr == "" {
		return "", errors.New("encryption.codec_address is empty: set it to serve the codec endpoint")
	}
	if log == nil {
		log = slog.Default()
	}
	keys, err := codec.ParseKeys(cfg.Encryption.Keys)
	if err != nil {
		return "", fmt.Errorf("encryption.keys: %w", err)
	}
	token := cfg.Encryption.CodecToken
	if token == "" && !isLoopback(addr) {
		return "", fmt.Errorf("encryption.codec_address %s is reachable from other hosts: set encryption.codec_token "+
			"(PHONEFLOW_ENCRYPTION_CODEC_TOKEN), or bind it to 127.0.0.1", addr)
	}
	h, err := codec.NewHTTPHandler(keys, codec.Options{
		Token:                token,
		AllowOrigins:         uiOrigins,
		AllowUnauthenticated: token == "",
		TokenInPath:          token != "",
		Logger:               log,
	})
	if err != nil {
		return "", err
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("codec endpoint: cannot listen on %s: %w — set another --codec-address", addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("codec endpoint stopped", "error", err)
		}
	}()
	if token == "" {
		log.Warn("codec endpoint serves without a token; it listens on loopback only", "address", l.Addr().String())
	}
	return l.Addr().String(), nil
}
