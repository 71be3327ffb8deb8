"""Statements in German, French or Spanish that share words but do not contradict (two subjects, two things of one
kind, an addition, an event beside a policy, a practice ended on another day) are no pair: their function words are
read as English's are (``contradiction_words.STOP``, ``VERBS``, ``PRONOUNS``), a German noun after its article as a
word, and "ne ... plus", "nicht mehr" as "no longer" (issue 27 §2). Word tests at the packaged model's cosine, then
remember on each backend."""

from __future__ import annotations

import pytest
from stores import flagged

from memvault.storage.store import Store

pytestmark = pytest.mark.contract

GERMAN = [
    ("Das Backup läuft um 2:00", "Der Restore-Test läuft um 4:00"),
    ("Das Staging-Cluster hat 4 Knoten", "Das Produktions-Cluster hat 12 Knoten"),
    ("Anna leitet das Plattform-Team", "Priya leitet das Design-Team"),
    ("Wir nutzen Jenkins für CI", "Wir nutzen auch GitHub Actions für Releases"),
    ("Das Standup ist um 9:15", "Die Retro ist am Freitag um 16:00"),
    ("Die API läuft auf Port 8080", "Die Datenbank läuft auf Port 5432"),
    ("Passwörter werden mit bcrypt gehasht", "Das Admin-Passwort wurde letzte Woche geändert"),
    ("Das Büro ist in Berlin", "Das Lager ist in Hamburg"),
    ("Die Logs werden 14 Tage aufbewahrt", "Die Metriken werden 90 Tage aufbewahrt"),
    ("Wir deployen freitags", "Wir testen freitags auch die Migrationen"),
    ("Maria trinkt morgens Kaffee", "Maria trinkt abends Tee"),
    ("Das Backup läuft jede Nacht", "Das Backup wird in S3 gespeichert"),
    ("Der Cache wird alle 6 Stunden geleert", "Der Cache ist 2 GB groß"),
    ("Jonas ist bis Montag im Urlaub", "Jonas ist für die Releases zuständig"),
    ("Die Rechnung kommt am Monatsanfang", "Die Mahnung kommt nach 14 Tagen"),
    ("Unser CI läuft auf Jenkins", "Unser CD läuft auf Argo CD"),
    ("Wir verwenden Python 3.11", "Wir verwenden Node 20 für das Frontend"),
    ("Das Meeting ist in Raum B", "Das Mittagessen ist in der Kantine"),
    ("Die App unterstützt iOS 16", "Die Web-App unterstützt Chrome und Firefox"),
    ("Der Server steht in Frankfurt", "Der Backup-Server steht in Dublin"),
    ("Das Zertifikat ist bis 2026 gültig", "Die Domain ist bis 2028 registriert"),
    ("Die Tests dauern 5 Minuten", "Der Build dauert 12 Minuten"),
    ("Wir haben 3 Replikate", "Wir haben 2 Rechenzentren"),
    ("Anna wohnt in München", "Anna arbeitet in Stuttgart"),
    ("Das Team trifft sich montags", "Das Team feiert freitags"),
    ("Die Backupzeit ist 2:00", "Die Backupgröße ist 50 GB"),
    ("Das Passwort muss 12 Zeichen haben", "Das WLAN-Passwort hängt am Kühlschrank"),
    ("Die Deploys laufen über Argo CD", "Die Alerts laufen über PagerDuty"),
    ("Wir deployen freitags nicht mehr", "Wir deployen montags"),
    ("Nils betreut das API-Gateway", "Nils betreut auch die Dokumentation"),
    ("Das Limit liegt bei 100 Anfragen pro Minute", "Das Upload-Limit liegt bei 10 MB"),
    ("Die Uhrzeit des Backups ist 2:00", "Die Uhrzeit des Standups ist 9:15"),
]
FRENCH = [
    ("La sauvegarde a lieu à 2h00", "Le test de restauration a lieu à 4h00"),
    ("Le cluster de staging a 4 nœuds", "Le cluster de production a 12 nœuds"),
    ("Anna dirige l'équipe plateforme", "Priya dirige l'équipe design"),
    ("Nous utilisons Jenkins pour la CI", "Nous utilisons aussi GitHub Actions pour les releases"),
    ("Le standup est à 9h15", "La rétro est le vendredi à 16h00"),
    ("L'API écoute sur le port 8080", "La base de données écoute sur le port 5432"),
    ("Les mots de passe sont hachés avec bcrypt", "Le mot de passe admin a été changé la semaine dernière"),
    ("Le bureau est à Paris", "L'entrepôt est à Lyon"),
    ("Les journaux sont conservés 14 jours", "Les métriques sont conservées 90 jours"),
    ("Nous déployons le vendredi", "Nous testons aussi les migrations le vendredi"),
    ("Marie boit du café le matin", "Marie boit du thé le soir"),
    ("La sauvegarde a lieu chaque nuit", "La sauvegarde est stockée dans S3"),
    ("Le cache est vidé toutes les 6 heures", "Le cache fait 2 Go"),
    ("Jonas est en congé jusqu'à lundi", "Jonas est responsable des releases"),
    ("La facture arrive en début de mois", "La relance arrive après 14 jours"),
    ("Notre CI tourne sur Jenkins", "Notre CD tourne sur Argo CD"),
    ("Nous utilisons Python 3.11", "Nous utilisons Node 20 pour le frontend"),
    ("La réunion est dans la salle B", "Le déjeuner est à la cantine"),
    ("L'application supporte iOS 16", "L'application web supporte Chrome et Firefox"),
    ("Le certificat est valable jusqu'en 2026", "Le domaine est enregistré jusqu'en 2028"),
    ("Les tests durent 5 minutes", "Le build dure 12 minutes"),
    ("Nous avons 3 réplicas", "Nous avons 2 centres de données"),
    ("Anna habite à Lyon", "Anna travaille à Grenoble"),
    ("L'équipe se réunit le lundi", "L'équipe fait la fête le vendredi"),
    ("L'heure de la sauvegarde est 2h00", "La taille de la sauvegarde est 50 Go"),
    ("Le mot de passe doit avoir 12 caractères", "Le mot de passe wifi est sur le frigo"),
    ("Les déploiements passent par Argo CD", "Les alertes passent par PagerDuty"),
    ("Nous ne déployons plus le vendredi", "Nous déployons le lundi"),
    ("Nils gère la passerelle API", "Nils gère aussi la documentation"),
    ("La limite est de 100 requêtes par minute", "La limite d'upload est de 10 Mo"),
]
SPANISH = [
    ("La copia de seguridad se hace a las 2:00", "La prueba de restauración se hace a las 4:00"),
    ("El clúster de staging tiene 4 nodos", "El clúster de producción tiene 12 nodos"),
    ("Anna dirige el equipo de plataforma", "Priya dirige el equipo de diseño"),
    ("Usamos Jenkins para CI", "También usamos GitHub Actions para las releases"),
    ("La reunión diaria es a las 9:15", "La retro es el viernes a las 16:00"),
    ("La API escucha en el puerto 8080", "La base de datos escucha en el puerto 5432"),
    ("Las contraseñas se guardan con bcrypt", "La contraseña de admin se cambió la semana pasada"),
    ("La oficina está en Madrid", "El almacén está en Sevilla"),
    ("Los registros se guardan 14 días", "Las métricas se guardan 90 días"),
    ("Desplegamos los viernes", "También probamos las migraciones los viernes"),
    ("María toma café por la mañana", "María toma té por la noche"),
    ("La copia de seguridad se hace cada noche", "La copia de seguridad se guarda en S3"),
    ("La caché se vacía cada 6 horas", "La caché ocupa 2 GB"),
    ("Jonás está de vacaciones hasta el lunes", "Jonás es responsable de las releases"),
    ("La factura llega a principio de mes", "El recordatorio llega después de 14 días"),
    ("Nuestro CI corre en Jenkins", "Nuestro CD corre en Argo CD"),
    ("Usamos Python 3.11", "Usamos Node 20 para el frontend"),
    ("La reunión es en la sala B", "La comida es en la cantina"),
    ("La app soporta iOS 16", "La app web soporta Chrome y Firefox"),
    ("El certificado es válido hasta 2026", "El dominio está registrado hasta 2028"),
    ("Las pruebas tardan 5 minutos", "La compilación tarda 12 minutos"),
    ("Tenemos 3 réplicas", "Tenemos 2 centros de datos"),
    ("Ana vive en Valencia", "Ana trabaja en Madrid"),
    ("El equipo se reúne los lunes", "El equipo celebra los viernes"),
    ("La hora de la copia es las 2:00", "El tamaño de la copia es 50 GB"),
    ("La contraseña debe tener 12 caracteres", "La contraseña del wifi está en la nevera"),
    ("Los despliegues pasan por Argo CD", "Las alertas pasan por PagerDuty"),
    ("Ya no desplegamos los viernes", "Desplegamos los lunes"),
    ("Nils gestiona el API gateway", "Nils gestiona también la documentación"),
    ("El límite es de 100 peticiones por minuto", "El límite de subida es de 10 MB"),
]


@pytest.mark.parametrize(("old", "new"), GERMAN + FRENCH + SPANISH)
def test_statements_sharing_words_in_german_french_or_spanish_contradict_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new"), [GERMAN[6], FRENCH[6], SPANISH[6], GERMAN[28], FRENCH[27]])
def test_remember_names_no_contradiction_between_them(real_store: Store, old, new):
    real_store.remember(tenant="t", scope="p", content=old, observed_at="2026-03-01T10:00:00Z")
    newer = real_store.remember(tenant="t", scope="p", content=new, observed_at="2026-10-01T10:00:00Z")
    assert newer.created and newer.contradicts == ()
