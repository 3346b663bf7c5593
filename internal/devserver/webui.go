package devserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/temporalio/ui-server/v2/server/api"
	"github.com/temporalio/ui-server/v2/server/auth"
	uiconfig "github.com/temporalio/ui-server/v2/server/config"
	"github.com/temporalio/ui-server/v2/server/cors"
	"github.com/temporalio/ui-server/v2/server/csrf"
	"github.com/temporalio/ui-server/v2/server/headers"
	"github.com/temporalio/ui-server/v2/server/route"
	"github.com/temporalio/ui-server/v2/ui"
)

// webUI is the Temporal Web UI served on a listener phoneflow bound itself.
// The ui-server library's own Server binds its port inside Start and ends
// the process (log.Fatal) when that fails; here the routes of the same
// library are mounted on our listener instead, so a taken port is an error
// Start returns, never an exit (docs/design.md §14).
type webUI struct {
	http *http.Server
	done chan struct{}
}

// startWebUI serves the UI for the frontend at grpcAddr on ln until stop.
func startWebUI(ln net.Listener, cfg *uiconfig.Config, report func(error)) (*webUI, error) {
	provider, err := uiconfig.NewConfigProviderWithRefresh(cfg)
	if err != nil {
		return nil, fmt.Errorf("Web UI config: %w", err)
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Use(middleware.Recover(), middleware.Gzip())
	e.Use(cors.CORSMiddleware(cors.CORSConfig{
		AllowHeaders: []string{
			echo.HeaderOrigin, echo.HeaderContentType, echo.HeaderAccept,
			echo.HeaderXCSRFToken, echo.HeaderAuthorization, auth.AuthorizationExtrasHeader, "Caller-Type",
		},
		AllowCredentials: true,
		ConfigProvider:   provider,
	}))
	e.Use(middleware.Secure())
	secure := !cfg.CORS.CookieInsecure
	e.Use(csrf.EnsureTokenCookie(secure))
	e.Use(middleware.CSRFWithConfig(csrf.MiddlewareConfig(provider, secure)))
	e.Pre(route.PublicPath(cfg.PublicPath))
	route.SetHealthRoute(e)
	forward := []api.Middleware{headers.WithForwardHeaders([]string{auth.AuthorizationExtrasHeader, "Caller-Type"})}
	if err := route.SetAPIRoutes(e, provider, forward); err != nil {
		return nil, fmt.Errorf("Web UI API routes: %w", err)
	}
	route.SetAuthRoutes(e, provider)
	assets, err := ui.Assets()
	if err != nil {
		return nil, fmt.Errorf("Web UI assets: %w", err)
	}
	if assets, err = fs.Sub(assets, "local"); err != nil {
		return nil, fmt.Errorf("Web UI assets: %w", err)
	}
	if err := route.SetUIRoutes(e, cfg.PublicPath, assets); err != nil {
		return nil, fmt.Errorf("Web UI routes: %w", err)
	}
	route.SetRenderRoute(e, cfg.PublicPath)

	w := &webUI{http: &http.Server{Handler: e, ReadHeaderTimeout: 10 * time.Second}, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		if err := w.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			report(err)
		}
	}()
	return w, nil
}

// stop closes the listener and every connection and waits for Serve.
func (w *webUI) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := w.http.Shutdown(ctx); err != nil {
		_ = w.http.Close()
	}
	<-w.done
}
