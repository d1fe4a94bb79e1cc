"""Django's own messages a player can meet (sign-up, log-in, password change and reset,
password rules, form errors).

Never imported: ``makemessages`` reads this file so that these messages are in the
project's catalogs (``locale/``), which take precedence over Django's, and are translated
there completely and correctly. Each line is copied from Django's source; keep them equal
when Django changes a message (``make messages`` then shows it as new).
"""

from django.utils.translation import gettext_noop, ngettext_lazy

DJANGO_MESSAGES = [
    # django/forms and django/core/validators
    gettext_noop("This field is required."),
    gettext_noop("Enter a valid value."),
    gettext_noop("Enter a whole number."),
    gettext_noop("Null characters are not allowed."),
    gettext_noop("Ensure this value is less than or equal to %(limit_value)s."),
    gettext_noop("Ensure this value is greater than or equal to %(limit_value)s."),
    gettext_noop("Select a valid choice. %(value)s is not one of the available choices."),
    gettext_noop("Select a valid choice. That choice is not one of the available choices."),
    ngettext_lazy(
        "Ensure this value has at least %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at least %(limit_value)d characters (it has %(show_value)d).",
        "limit_value",
    ),
    ngettext_lazy(
        "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
        "limit_value",
    ),
    # django/contrib/auth: the user, the log-in and sign-up forms
    gettext_noop("username"),
    gettext_noop("first name"),
    gettext_noop("last name"),
    gettext_noop("email address"),
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop("A user with that username already exists."),
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and "
        "@/./+/-/_ characters."
    ),
    gettext_noop("Password"),
    gettext_noop("Password confirmation"),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("The two password fields didn’t match."),
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
    gettext_noop("This account is inactive."),
    # django/contrib/auth: changing a password, and setting one from a reset link
    gettext_noop("Old password"),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    gettext_noop("New password"),
    gettext_noop("New password confirmation"),
    gettext_noop("Email"),
    # django/contrib/auth/password_validation
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        "min_length",
    ),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        "min_length",
    ),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("This password is too common."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop("Your password can’t be entirely numeric."),
]
