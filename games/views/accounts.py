"""Accounts: log-in (a guest's seats follow them in), sign-up, and the account page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games import services
from games.views.common import HtmxHttpRequest
from games.views.forms import EmailForm, SignupForm


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
    return render(request, "registration/account.html", {"form": form}, status=status)
