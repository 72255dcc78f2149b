package main

// A line-based reader of the Dockerfile, enough for the deployment checks in
// deploy_test.go: continuation lines, comments, flags, the exec (JSON) and shell forms,
// and ENV's two spellings. It refuses what it does not know (an unknown instruction, an
// instruction before the first FROM, a broken exec form where one is required), so a
// Dockerfile change that breaks what the checks read fails the test instead of passing
// unread.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// instr is one Dockerfile instruction.
type instr struct {
	Cmd   string   // lower case: from, run, copy, ...
	Flags []string // --from=build, --interval=10s, ...
	Args  []string // arguments (exec form: the JSON array's elements)
	JSON  bool     // exec form
	Line  int      // line of the instruction's first line
}

// stage is one FROM … block.
type stage struct {
	Base, Name string
	Instrs     []instr
}

func (s stage) all(cmd string) []instr {
	var out []instr
	for _, in := range s.Instrs {
		if in.Cmd == cmd {
			out = append(out, in)
		}
	}
	return out
}

// dockerInstructions are the instructions of the Dockerfile reference.
var dockerInstructions = map[string]bool{
	"add": true, "arg": true, "cmd": true, "copy": true, "entrypoint": true, "env": true,
	"expose": true, "from": true, "healthcheck": true, "label": true, "maintainer": true,
	"onbuild": true, "run": true, "shell": true, "stopsignal": true, "user": true,
	"volume": true, "workdir": true,
}

// parseDockerfile reads the Dockerfile at path into its stages.
func parseDockerfile(t *testing.T, path string) []stage {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	stages, err := readDockerfile(f)
	require.NoError(t, err, "Dockerfile")
	return stages
}

// readDockerfile splits a Dockerfile into stages of instructions.
func readDockerfile(r io.Reader) ([]stage, error) {
	var stages []stage
	sc := bufio.NewScanner(r)
	lineNo, start := 0, 0
	var cur strings.Builder
	flush := func() error {
		text := strings.TrimSpace(cur.String())
		cur.Reset()
		if text == "" {
			return nil
		}
		in, err := parseInstr(text, start)
		if err != nil {
			return err
		}
		if in.Cmd == "from" {
			s := stage{Base: in.Args[0]}
			if len(in.Args) == 3 && strings.EqualFold(in.Args[1], "as") {
				s.Name = in.Args[2]
			} else if len(in.Args) != 1 {
				return fmt.Errorf("line %d: FROM image [AS name], got %q", in.Line, text)
			}
			stages = append(stages, s)
			return nil
		}
		if len(stages) == 0 {
			return fmt.Errorf("line %d: %s before the first FROM", in.Line, in.Cmd)
		}
		stages[len(stages)-1].Instrs = append(stages[len(stages)-1].Instrs, in)
		return nil
	}
	for sc.Scan() {
		lineNo++
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") { // comments and parser directives, also inside continuations
			continue
		}
		if cur.Len() == 0 {
			if line == "" {
				continue
			}
			start = lineNo
		}
		if body, ok := strings.CutSuffix(line, `\`); ok {
			cur.WriteString(body + " ")
			continue
		}
		cur.WriteString(line)
		if err := flush(); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if cur.Len() > 0 {
		return nil, fmt.Errorf("line %d: the file ends inside a continuation", start)
	}
	return stages, nil
}

// parseInstr parses one instruction (continuations joined) that starts at line.
func parseInstr(text string, line int) (instr, error) {
	word, rest, _ := strings.Cut(text, " ")
	in := instr{Cmd: strings.ToLower(word), Line: line}
	if !dockerInstructions[in.Cmd] {
		return in, fmt.Errorf("line %d: unknown instruction %q", line, word)
	}
	rest = strings.TrimSpace(rest)
	for strings.HasPrefix(rest, "--") {
		var flag string
		flag, rest, _ = strings.Cut(rest, " ")
		in.Flags = append(in.Flags, flag)
		rest = strings.TrimSpace(rest)
	}
	switch in.Cmd {
	case "run", "cmd", "entrypoint", "shell":
		in.Args, in.JSON = maybeJSON(rest)
	case "healthcheck":
		kind, cmd, _ := strings.Cut(rest, " ")
		in.Args = []string{kind}
		if strings.EqualFold(kind, "cmd") {
			args, isJSON := maybeJSON(strings.TrimSpace(cmd))
			in.Args, in.JSON = append(in.Args, args...), isJSON
		}
	case "env", "label":
		pairs, err := keyValues(rest)
		if err != nil {
			return in, fmt.Errorf("line %d: %w", line, err)
		}
		in.Args = pairs
	default:
		in.Args = strings.Fields(rest)
	}
	if len(in.Args) == 0 || in.Args[0] == "" {
		return in, fmt.Errorf("line %d: %s without arguments", line, word)
	}
	return in, nil
}

// maybeJSON returns the elements of an exec-form array, or s as the one shell-form argument.
func maybeJSON(s string) (args []string, isJSON bool) {
	if strings.HasPrefix(s, "[") {
		if err := json.Unmarshal([]byte(s), &args); err == nil {
			return args, true
		}
	}
	return []string{s}, false
}

// keyValues parses ENV/LABEL arguments, "k1=v1 k2=v2" or the legacy "key value", into
// key, value, key, value… (double quotes around a value are removed).
func keyValues(s string) ([]string, error) {
	first, rest, _ := strings.Cut(s, " ")
	if !strings.Contains(first, "=") {
		return []string{first, strings.TrimSpace(rest)}, nil
	}
	var out []string
	for _, kv := range strings.Fields(s) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%q is not key=value", kv)
		}
		out = append(out, k, strings.Trim(v, `"`))
	}
	return out, nil
}

func TestReadDockerfile(t *testing.T) {
	const good = `# syntax=docker/dockerfile:1
FROM golang:1.26 AS build
RUN go build \
 # a comment inside a continuation
 -o /out/x ./cmd/x

FROM alpine:3.20
ENV A=1 B="two"
ENV LEGACY some value
HEALTHCHECK --interval=10s --retries=3 \
  CMD wget -qO- http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/x", "-v"]
`
	stages, err := readDockerfile(strings.NewReader(good))
	require.NoError(t, err)
	require.Len(t, stages, 2)
	assert.Equal(t, stage{Base: "golang:1.26", Name: "build", Instrs: []instr{
		{Cmd: "run", Args: []string{"go build  -o /out/x ./cmd/x"}, Line: 3},
	}}, stages[0])
	assert.Equal(t, []instr{
		{Cmd: "env", Args: []string{"A", "1", "B", "two"}, Line: 8},
		{Cmd: "env", Args: []string{"LEGACY", "some value"}, Line: 9},
		{Cmd: "healthcheck", Flags: []string{"--interval=10s", "--retries=3"},
			Args: []string{"CMD", "wget -qO- http://127.0.0.1:8080/healthz || exit 1"}, Line: 10},
		{Cmd: "entrypoint", Args: []string{"/usr/local/bin/x", "-v"}, JSON: true, Line: 12},
	}, stages[1].Instrs)

	for name, bad := range map[string]string{
		"unknown instruction":   "FROM a\nRUNN x\n",
		"before FROM":           "RUN x\nFROM a\n",
		"FROM with junk":        "FROM a b c d\n",
		"open continuation":     "FROM a\nRUN x \\\n",
		"empty instruction":     "FROM a\nUSER\n",
		"ENV pair without key":  "FROM a\nENV A=1 =2\n",
		"HEALTHCHECK no kind":   "FROM a\nHEALTHCHECK --interval=1s\n",
		"FROM without an image": "FROM\n",
	} {
		_, err := readDockerfile(strings.NewReader(bad))
		assert.Error(t, err, name)
	}
}
