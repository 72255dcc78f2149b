package main

// Checks of the deployment files at the repository root (Dockerfile, docker-compose.yml
// with the load balancer's Caddyfile inline) that need no Docker: the Dockerfile is
// read by readDockerfile (dockerfile_test.go), the compose file with a YAML parser, and the
// Dockerfile's build commands are run as they are (CGO_ENABLED=0 go build of every
// command it builds).

import (
	"bytes"
	"debug/elf"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/gomoku-arena/gomoku/server/crashtest/composecfg"
)

const repoRoot = "../.."

func flagValue(flags []string, name string) (string, bool) {
	for _, f := range flags {
		if v, ok := strings.CutPrefix(f, "--"+name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// busyboxApplets are the commands of alpine's busybox that a HEALTHCHECK may use.
var busyboxApplets = []string{"wget", "nc", "sh", "test", "["}

var goBuildRE = regexp.MustCompile(`go build\b[^&;|]*`)

func TestDockerfile(t *testing.T) {
	stages := parseDockerfile(t, filepath.Join(repoRoot, "Dockerfile"))
	require.GreaterOrEqual(t, len(stages), 2, "the Dockerfile must be multi-stage")
	build, final := stages[0], stages[len(stages)-1]
	require.NotEmpty(t, build.Name, "the build stage needs a name (FROM … AS build)")
	assert.True(t, strings.HasPrefix(build.Base, "golang:"), "build stage base %q is not a golang image", build.Base)
	if m := regexp.MustCompile(`^golang:(\d+\.\d+)`).FindStringSubmatch(build.Base); m != nil {
		gomod, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
		require.NoError(t, err)
		gv := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(gomod)
		require.NotNil(t, gv)
		assert.Equal(t, string(gv[1]), m[1], "the golang image's Go version differs from go.mod's")
	}

	// The final stage: a small base, a non-root user, a health check that its base can run.
	finalBase := final.Base
	assert.Regexp(t, `^(alpine:|gcr.io/distroless/|scratch$)`, finalBase, "final stage base should be small")
	users := final.all("user")
	require.NotEmpty(t, users, "the final stage must switch to a non-root USER")
	user := strings.SplitN(users[len(users)-1].Args[0], ":", 2)[0]
	assert.NotContains(t, []string{"root", "0"}, user, "final USER is root")
	if !regexp.MustCompile(`^\d+$`).MatchString(user) { // a named user must be created in the final stage
		created := false
		for _, r := range final.all("run") {
			if regexp.MustCompile(`\b(adduser|useradd)\b.*\b` + regexp.QuoteMeta(user) + `\b`).MatchString(strings.Join(r.Args, " ")) {
				created = true
			}
		}
		assert.True(t, created, "USER %s is not created (adduser/useradd) in the final stage", user)
	}
	hcs := final.all("healthcheck")
	require.Len(t, hcs, 1, "the final stage needs one HEALTHCHECK")
	hc := hcs[0]
	require.GreaterOrEqual(t, len(hc.Args), 2, "HEALTHCHECK NONE or without a command")
	require.Equal(t, "cmd", strings.ToLower(hc.Args[0]), "HEALTHCHECK NONE")
	hcCmd := strings.Join(hc.Args[1:], " ") // shell form: one string; exec form: the array
	if hc.JSON && len(hc.Args) > 1 && hc.Args[1] == "CMD-SHELL" {
		hcCmd = strings.Join(hc.Args[2:], " ")
	}
	fields := strings.Fields(hcCmd)
	require.NotEmpty(t, fields)
	if strings.HasPrefix(finalBase, "alpine:") {
		assert.Contains(t, busyboxApplets, fields[0], "health check command %q is not in alpine's base image", fields[0])
	}
	for _, f := range []string{"interval", "timeout", "retries"} {
		_, ok := flagValue(hc.Flags, f)
		assert.True(t, ok, "HEALTHCHECK without --%s", f)
	}
	hcURL := regexp.MustCompile(`https?://\S+`).FindString(hcCmd)
	require.NotEmpty(t, hcURL, "health check does not call an http URL: %s", hcCmd)
	u, err := url.Parse(hcURL)
	require.NoError(t, err)
	assert.Contains(t, []string{"/healthz", "/readyz"}, u.Path, "health check path (docs/protocol.md)")
	if fields[0] == "wget" {
		for _, f := range fields[1:] { // busybox wget knows only a few options
			if strings.HasPrefix(f, "-") {
				assert.Regexp(t, `^(-q|-O-?|-qO-?|-T\d*|--spider|-S)$`, f, "busybox wget has no option %s", f)
			}
		}
	}
	// The port it checks is the one the server listens on and the image exposes.
	addr := ""
	for _, e := range final.all("env") {
		for i := 0; i+1 < len(e.Args); i += 2 {
			if e.Args[i] == "GOMOKU_ADDR" {
				addr = e.Args[i+1]
			}
		}
	}
	require.NotEmpty(t, addr, "ENV GOMOKU_ADDR missing in the final stage")
	port := addr[strings.LastIndex(addr, ":")+1:]
	assert.Equal(t, port, u.Port(), "health check port vs GOMOKU_ADDR")
	var exposed []string
	for _, e := range final.all("expose") {
		exposed = append(exposed, e.Args...)
	}
	assert.Contains(t, exposed, port, "EXPOSE")

	// COPY sources exist; --from names a stage; ENTRYPOINT is a built binary.
	stageNames := map[string]bool{}
	for _, s := range stages {
		stageNames[s.Name] = true
	}
	var built []string // binaries written by go build -o in the build stage
	for _, s := range stages {
		for _, c := range s.all("copy") {
			require.GreaterOrEqual(t, len(c.Args), 2, "COPY at line %d", c.Line)
			if from, ok := flagValue(c.Flags, "from"); ok {
				assert.True(t, stageNames[from], "COPY --from=%s names no stage (line %d)", from, c.Line)
				continue
			}
			for _, src := range c.Args[:len(c.Args)-1] {
				m, err := filepath.Glob(filepath.Join(repoRoot, src))
				require.NoError(t, err)
				assert.NotEmpty(t, m, "COPY source %s (line %d) does not exist in the repository", src, c.Line)
			}
		}
	}
	for _, r := range build.all("run") {
		for _, cmd := range goBuildRE.FindAllString(strings.Join(r.Args, " "), -1) {
			if m := regexp.MustCompile(`-o\s+(\S+)`).FindStringSubmatch(cmd); m != nil {
				built = append(built, m[1])
			}
		}
	}
	require.NotEmpty(t, built, "no go build -o in the build stage")
	for _, r := range build.all("run") { // the packages built exist and are commands
		for _, cmd := range goBuildRE.FindAllString(strings.Join(r.Args, " "), -1) {
			pkgs := regexp.MustCompile(`\s(\./\S+)`).FindAllStringSubmatch(cmd, -1)
			require.NotEmpty(t, pkgs, "no package in %q", cmd)
			for _, p := range pkgs {
				lo, err := exec.Command("go", "list", "-C", repoRoot, "-f", "{{.Name}}", p[1]).CombinedOutput()
				require.NoError(t, err, "go list %s: %s", p[1], lo)
				require.Equal(t, "main", strings.TrimSpace(string(lo)), "%s is not a command", p[1])
			}
		}
	}
	eps := final.all("entrypoint")
	require.NotEmpty(t, eps, "no ENTRYPOINT")
	ep := eps[len(eps)-1]
	assert.True(t, ep.JSON, "ENTRYPOINT should be exec form (signals reach gomokud)")
	var copiedTo []string
	for _, c := range final.all("copy") {
		if from, _ := flagValue(c.Flags, "from"); from == build.Name {
			src, dst := c.Args[0], c.Args[len(c.Args)-1]
			for _, b := range built {
				if rel, ok := strings.CutPrefix(b, strings.TrimSuffix(src, "/")+"/"); ok && strings.HasSuffix(dst, "/") {
					copiedTo = append(copiedTo, dst+rel)
				} else if b == src {
					copiedTo = append(copiedTo, dst)
				}
			}
		}
	}
	assert.Contains(t, copiedTo, ep.Args[0], "ENTRYPOINT %s is not a binary copied from the build stage (%v)", ep.Args[0], copiedTo)
}

// TestDockerignore: the build context keeps every file the Dockerfile's COPY and go build
// need (the module files, every package of the module and its go:embed files).
func TestDockerignore(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repoRoot, ".dockerignore"))
	if os.IsNotExist(err) {
		return
	}
	require.NoError(t, err)
	var patterns []string
	for _, line := range strings.Split(string(raw), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			require.False(t, strings.HasPrefix(line, "!"), "exceptions (%s) are not checked here", line)
			patterns = append(patterns, strings.TrimPrefix(line, "/"))
		}
	}
	// Each package's directory (a stand-in .go file) and its go:embed files (the frontend).
	out, err := exec.Command("go", "list", "-C", repoRoot, "-f",
		"D {{.Dir}}/x.go{{range .EmbedFiles}}\nF {{$.Dir}}/{{.}}{{end}}", "./...").Output()
	require.NoError(t, err)
	abs, err := filepath.Abs(repoRoot)
	require.NoError(t, err)
	need := []string{"go.mod", "go.sum"}
	embeds := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		kind, file, _ := strings.Cut(line, " ")
		rel, err := filepath.Rel(abs, file)
		require.NoError(t, err)
		need = append(need, filepath.ToSlash(rel))
		if kind == "F" {
			embeds++
		}
	}
	require.NotZero(t, embeds, "no go:embed files found (the frontend is embedded)")
	for _, n := range need {
		for _, p := range patterns {
			if dockerignored(p, n) {
				t.Errorf(".dockerignore pattern %q excludes %s, which the image build needs", p, n)
			}
		}
	}
}

// dockerignored reports whether pattern (Docker's syntax: filepath.Match plus "**")
// excludes path or one of its parent directories.
func dockerignored(pattern, path string) bool {
	re := regexp.QuoteMeta(pattern)
	re = strings.ReplaceAll(re, `\*\*/`, `(.*/)?`)
	re = strings.ReplaceAll(re, `\*\*`, `.*`)
	re = strings.ReplaceAll(re, `\*`, `[^/]*`)
	re = strings.ReplaceAll(re, `\?`, `[^/]`)
	return regexp.MustCompile(`^` + re + `(/.*)?$`).MatchString(path)
}

// TestDockerfileBuildCommands runs the build stage's go build commands as written
// (output paths moved to a temp dir) and checks that the binaries are static, as the
// alpine (musl) base needs.
func TestDockerfileBuildCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three binaries; skipped with -short")
	}
	stages := parseDockerfile(t, filepath.Join(repoRoot, "Dockerfile"))
	out := t.TempDir()
	var cmds []string
	for _, r := range stages[0].all("run") {
		for _, part := range strings.Split(strings.Join(r.Args, " "), "&&") {
			part = strings.TrimSpace(part)
			if goBuildRE.MatchString(part) {
				cmds = append(cmds, part)
			}
		}
	}
	require.NotEmpty(t, cmds)
	for _, c := range cmds {
		o := regexp.MustCompile(`-o\s+(\S+)`).FindStringSubmatch(c)
		require.NotNil(t, o, "go build without -o: %q", c)
		bin := filepath.Join(out, filepath.Base(o[1]))
		run := strings.Replace(c, o[0], "-o "+bin, 1)
		cmd := exec.Command("sh", "-c", run)
		cmd.Dir = repoRoot
		b, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s: %s", run, b)
		f, err := elf.Open(bin)
		require.NoError(t, err)
		for _, p := range f.Progs {
			assert.NotEqual(t, elf.PT_INTERP, p.Type, "%s is dynamically linked: it would not run on alpine", bin)
		}
		f.Close()
	}
	t.Logf("built %d binaries", len(cmds))
}

// composeFile is the part of docker-compose.yml the test reads.
type composeFile struct {
	Services map[string]composeService `yaml:"services"`
	Volumes  map[string]any            `yaml:"volumes"`
}

// serviceWithImage returns the name of a service whose image starts with prefix ("" if none).
func (cf composeFile) serviceWithImage(prefix string) string {
	for name, s := range cf.Services {
		if strings.HasPrefix(s.Image, prefix) {
			return name
		}
	}
	return ""
}

type composeService struct {
	Image       string            `yaml:"image"`
	Build       any               `yaml:"build"`
	Command     []string          `yaml:"command"`
	Environment map[string]string `yaml:"environment"`
	Volumes     []string          `yaml:"volumes"`
	Ports       []string          `yaml:"ports"`
	DependsOn   yaml.Node         `yaml:"depends_on"`
	Healthcheck *struct {
		Test []string `yaml:"test"`
	} `yaml:"healthcheck"`
}

// dependsOn returns the services s depends on with their conditions ("" for the list form).
func (s composeService) dependsOn(t *testing.T) map[string]string {
	out := map[string]string{}
	switch s.DependsOn.Kind {
	case 0:
	case yaml.SequenceNode:
		var l []string
		require.NoError(t, s.DependsOn.Decode(&l))
		for _, n := range l {
			out[n] = ""
		}
	default:
		var m map[string]struct {
			Condition string `yaml:"condition"`
		}
		require.NoError(t, s.DependsOn.Decode(&m))
		for n, c := range m {
			out[n] = c.Condition
		}
	}
	return out
}

func TestDockerCompose(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repoRoot, "docker-compose.yml"))
	require.NoError(t, err)
	var cf composeFile
	require.NoError(t, yaml.Unmarshal(raw, &cf), "docker-compose.yml does not parse")
	require.NotEmpty(t, cf.Services)
	stages := parseDockerfile(t, filepath.Join(repoRoot, "Dockerfile"))
	dockerfileHC := len(stages) > 0 && len(stages[len(stages)-1].all("healthcheck")) > 0

	// Redis with AOF, its data on a volume, a health check.
	redisName := cf.serviceWithImage("redis:")
	require.NotEmpty(t, redisName, "no redis service")
	rs := cf.Services[redisName]
	cmd := strings.Join(rs.Command, " ")
	assert.Contains(t, cmd, "--appendonly yes", "redis without AOF")
	assert.Regexp(t, `--appendfsync (always|everysec)`, cmd)
	assert.True(t, slices.ContainsFunc(rs.Volumes, func(v string) bool { return strings.HasSuffix(v, ":/data") }), "redis data not on a volume")
	require.NotNil(t, rs.Healthcheck, "redis without a healthcheck")
	assert.NotEmpty(t, rs.Healthcheck.Test)

	// At least two gomokud nodes built from this repository, with distinct node ids, on that Redis.
	var nodes []string
	ids := map[string]string{}
	for name, s := range cf.Services {
		if s.Build == nil {
			continue
		}
		nodes = append(nodes, name)
		assert.Equal(t, ".", buildContext(s.Build), "%s: build context", name)
		id := s.Environment["GOMOKU_NODE_ID"]
		require.NotEmpty(t, id, "%s: no GOMOKU_NODE_ID", name)
		require.Empty(t, ids[id], "%s and %s share GOMOKU_NODE_ID %s", name, ids[id], id)
		ids[id] = name
		u, err := url.Parse(s.Environment["REDIS_URL"])
		require.NoError(t, err, "%s: REDIS_URL", name)
		assert.Equal(t, "redis", u.Scheme, "%s: REDIS_URL scheme", name)
		assert.Equal(t, redisName, u.Hostname(), "%s: REDIS_URL does not point at the redis service", name)
		assert.Equal(t, "6379", u.Port(), "%s: REDIS_URL port", name)
		assert.Equal(t, "service_healthy", s.dependsOn(t)[redisName], "%s should wait for a healthy redis", name)
		assert.True(t, s.Healthcheck != nil || dockerfileHC, "%s: no health check", name)
		assert.Empty(t, s.Ports, "%s publishes ports: clients should go through the load balancer", name)
	}
	slices.Sort(nodes)
	require.GreaterOrEqual(t, len(nodes), 2, "compose needs two gomokud nodes, has %v", nodes)

	// A load balancer in front, configured by a Caddyfile carried inline in the compose
	// file (top-level configs, mounted where its command reads it) that routes /ws/*
	// (and the rest) to every node.
	lbName := cf.serviceWithImage("caddy:")
	require.NotEmpty(t, lbName, "no caddy load balancer service")
	lb := cf.Services[lbName]
	assert.NotEmpty(t, lb.Ports, "the load balancer publishes no port")
	for _, v := range lb.Volumes { // bind mounts of repository files exist
		if src, _, ok := strings.Cut(v, ":"); ok && strings.HasPrefix(src, "./") {
			_, err := os.Stat(filepath.Join(repoRoot, src))
			assert.NoError(t, err, "%s mounts %s, which is not in the repository", lbName, src)
		}
	}
	target := composecfg.CaddyfileTarget // the caddy image's default; else the --config
	if i := slices.Index(lb.Command, "--config"); i >= 0 && i+1 < len(lb.Command) {
		target = lb.Command[i+1]
	}
	name, text, err := composecfg.Mounted(raw, lbName, target)
	require.NoError(t, err, "%s: the Caddyfile %s should be an inline config of docker-compose.yml", lbName, target)
	caddyfile := filepath.Join(t.TempDir(), "Caddyfile")
	require.NoError(t, os.WriteFile(caddyfile, []byte(text), 0o644))
	t.Logf("%s reads config %s at %s", lbName, name, target)
	deps := lb.dependsOn(t)
	for _, n := range nodes {
		assert.Contains(t, deps, n, "%s does not depend on %s", lbName, n)
	}
	checkCaddyfile(t, caddyfile, nodes)
}

func buildContext(b any) string {
	switch v := b.(type) {
	case string:
		return v
	case map[string]any:
		c, _ := v["context"].(string)
		return c
	}
	return ""
}

// checkCaddyfile checks that the load balancer routes /ws/ requests and the rest to every
// node on port 8080. With a caddy binary on $PATH the file is adapted to Caddy's JSON
// (which validates it) and the routes are read from there; without, the text is read.
func checkCaddyfile(t *testing.T, path string, nodes []string) {
	t.Helper()
	want := make([]string, len(nodes))
	for i, n := range nodes {
		want[i] = n + ":8080"
	}
	caddy, err := exec.LookPath("caddy")
	if err != nil {
		t.Logf("no caddy binary: checking the Caddyfile as text only")
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		text := string(b)
		assert.Contains(t, text, "reverse_proxy")
		for _, w := range want {
			assert.Contains(t, text, w)
		}
		return
	}
	cmd := exec.Command(caddy, "adapt", "--config", path, "--adapter", "caddyfile")
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { // the compose defaults
		return strings.HasPrefix(kv, "GOMOKU_LB_ADDR=") || strings.HasPrefix(kv, "GOMOKU_UPSTREAMS=")
	})
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "caddy adapt (the Caddyfile of docker-compose.yml): %s", stderr.String())
	var cfg struct {
		Apps struct {
			HTTP struct {
				Servers map[string]struct {
					Listen []string          `json:"listen"`
					Routes []json.RawMessage `json:"routes"`
				} `json:"servers"`
			} `json:"http"`
		} `json:"apps"`
	}
	require.NoError(t, json.Unmarshal(out, &cfg))
	require.Len(t, cfg.Apps.HTTP.Servers, 1)
	for _, srv := range cfg.Apps.HTTP.Servers {
		assert.Equal(t, []string{":8080"}, srv.Listen)
		var ws, rest []string
		for _, r := range srv.Routes {
			paths, ups := caddyRoute(t, r)
			if len(paths) == 0 {
				rest = append(rest, ups...)
			}
			for _, p := range paths {
				if p == "/ws/*" || p == "/ws*" {
					ws = append(ws, ups...)
				}
			}
		}
		if len(ws) == 0 { // a catch-all route serves /ws/ too
			ws = rest
		}
		slices.Sort(ws)
		slices.Sort(rest)
		assert.Equal(t, want, slices.Compact(ws), "upstreams for /ws/*")
		assert.Equal(t, want, slices.Compact(rest), "upstreams for the rest")
	}
}

// caddyRoute returns a route's path matchers and the reverse_proxy upstreams in its
// handlers (subroutes included).
func caddyRoute(t *testing.T, raw json.RawMessage) (paths, upstreams []string) {
	var r struct {
		Match []struct {
			Path []string `json:"path"`
		} `json:"match"`
		Handle []struct {
			Handler   string            `json:"handler"`
			Routes    []json.RawMessage `json:"routes"`
			Upstreams []struct {
				Dial string `json:"dial"`
			} `json:"upstreams"`
		} `json:"handle"`
	}
	require.NoError(t, json.Unmarshal(raw, &r))
	for _, m := range r.Match {
		paths = append(paths, m.Path...)
	}
	for _, h := range r.Handle {
		for _, u := range h.Upstreams {
			upstreams = append(upstreams, u.Dial)
		}
		for _, sub := range h.Routes {
			_, ups := caddyRoute(t, sub)
			upstreams = append(upstreams, ups...)
		}
	}
	return paths, upstreams
}
