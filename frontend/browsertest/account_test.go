package browsertest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fillAccountForm types a username and password into the account dialog's form and
// submits it.
func (p *Page) fillAccountForm(form, username, password string) {
	p.t.Helper()
	p.Wait(form+" form", `document.querySelector('#account-`+form+`') !== null`, 10*time.Second)
	Eval[bool](p, `(() => { const f = document.querySelector('#account-`+form+`').elements;
		f.username.value = `+jsString(username)+`; f.password.value = `+jsString(password)+`; return true; })()`)
	p.Click("#account-" + form + "-submit")
}

// signUp opens the account dialog from the lobby and signs up (the page's player becomes
// the account).
func (p *Page) signUp(username, password string) {
	p.t.Helper()
	p.accountForm("signup", username, password)
}

// logIn opens the account dialog from the lobby and logs in.
func (p *Page) logIn(username, password string) {
	p.t.Helper()
	p.accountForm("login", username, password)
}

func (p *Page) accountForm(form, username, password string) {
	p.t.Helper()
	p.Open("/")
	p.Click("#account-btn")
	p.Click("#account-tab-" + form) // a page without a player yet opens on Log in
	p.fillAccountForm(form, username, password)
	p.Wait(form+" done", `document.querySelector('#account-btn').dataset.account === 'yes'`, 20*time.Second)
	require.Equal(p.t, username, Eval[string](p, `document.querySelector('#account-btn').textContent.trim()`))
}

// TestAccountOnTwoDevices: a guest with a game signs up and keeps its id; a second
// browser logs in and is the same player (it takes the guest's seat back), sees both
// devices, signs the first one out, and logs out.
func TestAccountOnTwoDevices(t *testing.T) {
	e := Setup(t)
	laptop := e.NewPage(t, "laptop")
	room := laptop.CreateGame("ai", `f.color.value = 'black'`)
	guest := laptop.storedPlayer()
	require.NotEmpty(t, guest.ID)

	laptop.Open("/")
	require.Equal(t, "Log in", Eval[string](laptop, `document.querySelector('#account-btn').textContent.trim()`))
	laptop.Click("#account-btn")
	laptop.fillAccountForm("signup", "ab", "tulip-sky-42")
	laptop.Wait("local username check", `document.querySelector('#account-error').textContent.startsWith('A username is 3')`, 5*time.Second)
	laptop.fillAccountForm("signup", "alice_1", "tulip-sky-42")
	laptop.Wait("signed up", `document.querySelector('#account-btn').dataset.account === 'yes'`, 20*time.Second)
	require.Equal(t, "alice_1", Eval[string](laptop, `document.querySelector('#account-btn').textContent.trim()`))
	require.Equal(t, guest.ID, laptop.storedPlayer().ID, "the guest became the account")

	phone := e.NewPage(t, "phone")
	phone.Open("/")
	phone.Click("#account-btn")
	phone.fillAccountForm("login", "ALICE_1", "wrong password")
	phone.Wait("refused", `document.querySelector('#account-error').textContent === 'Wrong username or password.'`, 20*time.Second)
	phone.fillAccountForm("login", "ALICE_1", "tulip-sky-42")
	phone.Wait("logged in", `document.querySelector('#account-btn').dataset.account === 'yes'`, 20*time.Second)
	got := phone.storedPlayer()
	require.Equal(t, guest.ID, got.ID, "the same player on the second device")
	require.Equal(t, guest.Name, got.Name)
	require.NotEqual(t, guest.Token, got.Token)
	require.Equal(t, guest.Name, Eval[string](phone, `document.querySelector('#player-name').value`))
	phone.Open(room)
	phone.WaitRole("black")

	phone.Open("/")
	phone.Click("#account-btn")
	phone.Wait("two devices", `document.querySelectorAll('#session-list li.session').length === 2`, 20*time.Second)
	require.Equal(t, 1, Eval[int](phone, `document.querySelectorAll('#session-list .session-badge').length`), "this device is marked")
	phone.Click("#session-list .session-revoke")
	phone.Wait("one device", `document.querySelectorAll('#session-list li.session').length === 1`, 20*time.Second)
	phone.Click("#account-logout")
	phone.Wait("logged out", `document.querySelector('#account-btn').dataset.account === 'no'`, 20*time.Second)
	require.Equal(t, "", phone.storedPlayer().ID)
}
