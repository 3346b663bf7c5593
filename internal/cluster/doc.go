// Package cluster runs a Temporal cluster the way a team deploys one: the
// server's services (frontend, history, matching, worker) as separate
// processes built from the server module and version in go.mod, on a
// private PostgreSQL server holding the persistence and visibility stores,
// set up with the server's own schema tool, all on loopback
// (docs/design.md §14). The cluster test, its drills and the cluster bench
// start it here; docker-compose.yml runs the same versions and settings in
// containers.
package cluster
