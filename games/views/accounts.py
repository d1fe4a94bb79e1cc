"""Accounts: log-in (a guest's seats follow them in), sign-up, the account page, and what
an account owns: its password (changed, or reset by e-mail), its deletion, its data."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, SetPasswordForm
from django.contrib.auth.views import redirect_to_login
from django.forms import Form
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from games import selectors, services
from games.views.common import HtmxHttpRequest
from games.views.forms import AccountDeleteForm, EmailForm, SignupForm


class LoginView(auth_views.LoginView):
    """Django's login, and a guest who logs in keeps the seats they took as a guest."""

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        guest = self.request.session.get("guest_token", "")
        response = super().form_valid(form)
        services.guest_seats_claim(guest=guest, user_id=form.get_user().pk)
        return response


@require_http_methods(["GET", "POST"])
def signup(request: HtmxHttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = SignupForm(request.POST)
        if form.is_valid():
            user = form.save()
            guest = request.session.get("guest_token", "")
            login(request, user)
            services.guest_seats_claim(guest=guest, user_id=user.pk)
            messages.success(
                request,
                gettext("Welcome, %(name)s! Your games now count.") % {"name": user.username},
            )
            next_url = request.POST.get("next", "")
            if url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
                return redirect(next_url)
            return redirect("home")
        return render(request, "registration/signup.html", {"form": form}, status=400)
    return render(request, "registration/signup.html", {"form": SignupForm()})


@require_http_methods(["GET", "POST"])
def account(request: HtmxHttpRequest) -> HttpResponse:
    """The account page: the e-mail address daily games' turns are sent to."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    status = 200
    if request.method == "POST":
        form = EmailForm(request.POST)
        if form.is_valid():
            services.account_email_change(user_id=request.user.pk, email=form.cleaned_data["email"])
            messages.success(request, _("Your e-mail address is saved."))
            return redirect("account")
        status = 400
    else:
        form = EmailForm(initial={"email": request.user.email})
    social = selectors.social_settings(request.user.pk)  # who may reach you
    context = {"form": form, "social": social}
    return render(request, "registration/account.html", context, status=status)


# -- what an account owns ---------------------------------------------------------------------


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change (the session stays logged in); back to the account page
    with a word of confirmation. A refused form is a 400, which the limits count."""

    template_name = "registration/password_change_form.html"
    success_url = reverse_lazy("account")

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        response = super().form_valid(form)
        messages.success(self.request, _("Your password is changed."))
        return response

    def form_invalid(self, form: Form) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


class PasswordResetView(auth_views.PasswordResetView):
    """Asking for a reset link by e-mail. Django's view answers the same whether or not the
    address belongs to an account, and mails only an active account with a password."""

    template_name = "registration/password_reset_form.html"
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"
    success_url = reverse_lazy("password_reset_done")


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "registration/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """The link from the e-mail: a new password, once. A refused form is a 400, which the
    limits count; a link that is wrong or used already says so."""

    template_name = "registration/password_reset_confirm.html"
    success_url = reverse_lazy("password_reset_complete")

    def form_invalid(self, form: SetPasswordForm) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "registration/password_reset_complete.html"


@never_cache
@require_http_methods(["GET", "POST"])
def account_delete(request: HtmxHttpRequest) -> HttpResponse:
    """Deleting the account: a form asks for the password, a POST with it deletes."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if request.method == "POST":
        form = AccountDeleteForm(request.user, request.POST)
        if form.is_valid():
            services.account_delete(user_id=request.user.pk)
            logout(request)
            messages.success(request, _("Your account is deleted. Thank you for playing."))
            return redirect("home")
        return render(request, "registration/account_delete.html", {"form": form}, status=400)
    form = AccountDeleteForm(request.user)
    return render(request, "registration/account_delete.html", {"form": form})


@never_cache
@require_GET
def account_data(request: HtmxHttpRequest) -> HttpResponse:
    """Everything the site keeps about the logged-in account, as one JSON file."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    data = selectors.account_data(user_id=request.user.pk)
    data["people"] = selectors.social_data(request.user.pk)  # friends, blocks, inbox (issue 28)
    # Table talk (issue 29), notifications and devices (30), daily games, tournaments (32),
    # fair-play reviews and when the account was last on the site.
    data.update(selectors.account_kept(request.user.pk))
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    filename = f"yahtzee-{request.user.get_username()}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
