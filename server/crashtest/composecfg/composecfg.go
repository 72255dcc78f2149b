// Package composecfg reads the files that docker-compose.yml carries inline (top-level
// configs with content, docker compose v2.23+), as compose writes them into a
// container: compose interpolates variables in the text, so "$$" stands for a literal
// "$". The tests that run or check the load balancer's Caddyfile take it from here
// (server/crashtest, cmd/gomokud).
package composecfg

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// CaddyfileTarget is where the caddy image reads its configuration.
const CaddyfileTarget = "/etc/caddy/Caddyfile"

var (
	// ErrNoConfig is returned for a config that the compose file does not define or
	// mount, or that has no inline content.
	ErrNoConfig = errors.New("composecfg: no such inline config")
	// ErrInterpolated is returned for text with a "$" that compose would interpolate
	// (an escaped literal "$" is written "$$").
	ErrInterpolated = errors.New("composecfg: unescaped $ (compose would interpolate it; write $$)")
)

// file is the part of a compose file read here.
type file struct {
	Configs map[string]struct {
		Content *string `yaml:"content"`
	} `yaml:"configs"`
	Services map[string]struct {
		Image   string      `yaml:"image"`
		Configs []yaml.Node `yaml:"configs"`
	} `yaml:"services"`
}

func parse(compose []byte) (file, error) {
	var f file
	if err := yaml.Unmarshal(compose, &f); err != nil {
		return f, fmt.Errorf("composecfg: %w", err)
	}
	return f, nil
}

// Unescape returns s as compose passes it on: each "$$" becomes "$". Any other "$"
// would be interpolated by compose and is reported as ErrInterpolated.
func Unescape(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '$' {
			b.WriteByte('$')
			i++
			continue
		}
		line := 1 + strings.Count(s[:i], "\n")
		return "", fmt.Errorf("%w: line %d of the config", ErrInterpolated, line)
	}
	return b.String(), nil
}

// Content returns the unescaped inline content of the top-level config name.
func Content(compose []byte, name string) (string, error) {
	f, err := parse(compose)
	if err != nil {
		return "", err
	}
	return content(f, name)
}

func content(f file, name string) (string, error) {
	c, ok := f.Configs[name]
	if !ok || c.Content == nil {
		return "", fmt.Errorf("%w: configs.%s.content", ErrNoConfig, name)
	}
	text, err := Unescape(*c.Content)
	if err != nil {
		return "", fmt.Errorf("configs.%s: %w", name, err)
	}
	return text, nil
}

// Mounted returns the name and unescaped content of the config that service mounts at
// target (long syntax source/target, or short syntax NAME, mounted at /NAME).
func Mounted(compose []byte, service, target string) (name, text string, err error) {
	f, err := parse(compose)
	if err != nil {
		return "", "", err
	}
	s, ok := f.Services[service]
	if !ok {
		return "", "", fmt.Errorf("composecfg: no service %s", service)
	}
	for _, n := range s.Configs {
		var src, dst string
		switch n.Kind {
		case yaml.ScalarNode:
			src = n.Value
		case yaml.MappingNode:
			var m struct {
				Source string `yaml:"source"`
				Target string `yaml:"target"`
			}
			if err := n.Decode(&m); err != nil {
				return "", "", fmt.Errorf("composecfg: services.%s.configs: %w", service, err)
			}
			src, dst = m.Source, m.Target
		}
		if dst == "" {
			dst = "/" + src
		}
		if path.Clean(dst) == path.Clean(target) {
			text, err := content(f, src)
			return src, text, err
		}
	}
	return "", "", fmt.Errorf("%w: services.%s mounts no config at %s", ErrNoConfig, service, target)
}

// Caddyfile returns the Caddyfile that the compose file's caddy service (the one whose
// image is caddy:…) reads at CaddyfileTarget.
func Caddyfile(compose []byte) (string, error) {
	f, err := parse(compose)
	if err != nil {
		return "", err
	}
	var lb []string
	for name, s := range f.Services {
		if strings.HasPrefix(s.Image, "caddy:") {
			lb = append(lb, name)
		}
	}
	if len(lb) != 1 {
		return "", fmt.Errorf("composecfg: want one caddy:… service, have %v", lb)
	}
	_, text, err := Mounted(compose, lb[0], CaddyfileTarget)
	return text, err
}

// WriteCaddyfile writes the Caddyfile of the compose file at composePath (see Caddyfile)
// to dir/Caddyfile, for caddy run/adapt --config, and returns that path.
func WriteCaddyfile(composePath, dir string) (string, error) {
	raw, err := os.ReadFile(composePath)
	if err != nil {
		return "", fmt.Errorf("composecfg: %w", err)
	}
	text, err := Caddyfile(raw)
	if err != nil {
		return "", fmt.Errorf("%s: %w", composePath, err)
	}
	out := filepath.Join(dir, "Caddyfile")
	if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
		return "", fmt.Errorf("composecfg: %w", err)
	}
	return out, nil
}
