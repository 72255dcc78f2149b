package server

import "errors"

func asErr[T any](err error, target *T) bool { return errors.As(err, target) }
